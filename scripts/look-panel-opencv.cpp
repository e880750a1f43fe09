// OpenCV's non-photorealistic filters at given settings, for scripts/look-panel only (peers on
// the panel sheets, not product). Usage:
//   look-panel-opencv IN OUT pencil SIGMA_S SIGMA_R SHADE   (cv::pencilSketch, its grey output)
//   look-panel-opencv IN OUT stylization SIGMA_S SIGMA_R    (cv::stylization)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/photo.hpp>

int main(int argc, char **argv) {
    const bool pencil = argc == 7 && std::strcmp(argv[3], "pencil") == 0;
    const bool stylization = argc == 6 && std::strcmp(argv[3], "stylization") == 0;
    if (!pencil && !stylization) {
        std::fprintf(stderr, "usage: %s in out pencil sigma_s sigma_r shade | %s in out stylization sigma_s sigma_r\n", argv[0], argv[0]);
        return 2;
    }
    try {
        cv::Mat in = cv::imread(argv[1], cv::IMREAD_COLOR);
        if (in.empty()) throw std::runtime_error("cannot read input");
        cv::Mat out, colour;
        if (pencil)
            cv::pencilSketch(in, out, colour, std::atof(argv[4]), std::atof(argv[5]), std::atof(argv[6]));
        else
            cv::stylization(in, out, std::atof(argv[4]), std::atof(argv[5]));
        cv::imwrite(argv[2], out);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "look-panel-opencv: %s\n", e.what());
        return 1;
    }
    return 0;
}
